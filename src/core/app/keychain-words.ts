/**
 * What a keychain that cannot be used means for the user, and what to do about it. The store's own
 * message (what failed, with the platform's reason) stays first, as a sentence; the way out follows.
 * The CLI keeps the store's bare message: it has the environment variable as its way out.
 */
import type { SecretStoreError } from '../secrets/store.ts';

/** How to make the OS keychain usable again, in the words of each platform. */
export function keychainRemedy(platform: NodeJS.Platform = process.platform): string {
  if (platform === 'darwin') return 'Unlock the login keychain (in Keychain Access)';
  if (platform === 'win32') return 'Check that Windows Credential Manager works for your account';
  return 'Unlock the system keychain, or start one (Skindesk needs a Secret Service such as GNOME Keyring or KWallet)';
}

/** "could not … : reason" → "Could not … : reason." */
export function asSentence(text: string): string {
  const trimmed = text.trim().replace(/\.+$/, '');
  return `${trimmed.charAt(0).toUpperCase()}${trimmed.slice(1)}.`;
}

/** The keychain could not be read at start: the app has no key and runs on the demo market. */
export function unreadableKeychainWords(storeMessage: string): string {
  return (
    `${asSentence(storeMessage)} Until it can be read Skindesk has no API key and runs on the demo market. ` +
    `${keychainRemedy()}, then restart Skindesk.`
  );
}

/** A secret the store refused to save or delete: nothing changed (see AppCore #setMarket). */
export function secretStoreErrorWords(error: SecretStoreError): string {
  if (error.reason !== 'unavailable') return asSentence(error.message);
  return `${asSentence(error.message)} Nothing was changed. ${keychainRemedy()}, then try again.`;
}
