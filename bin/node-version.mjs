// Every command runs TypeScript with Node's own type stripping, which Node has from 22.12 on (behind a
// flag until 22.18, see run-typescript.mjs). An older Node fails on the first .ts file with an error that
// names neither Node nor a version ("bad option", "unknown file extension"), so each entry checks first.

/** The oldest Node that runs Skindesk (package.json's engines). */
export const NODE_MINIMUM = '22.12.0';

/** @param {string} version a Node version as `process.versions.node` spells it: `24.11.1` */
export function nodeIsTooOld(version) {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  const [needMajor, needMinor] = NODE_MINIMUM.split('.').map(Number);
  return major < needMajor || (major === needMajor && minor < needMinor);
}

/** Ends the process with a plain message when this Node is too old; `command` names who says it. */
export function requireNode(command) {
  if (!nodeIsTooOld(process.versions.node)) return;
  console.error(
    `${command}: Skindesk needs Node.js ${NODE_MINIMUM} or newer, and this is ${process.version} (${process.execPath}).\n` +
      'Install Node.js 24 LTS (https://nodejs.org) and run it again.',
  );
  process.exit(1);
}
