/**
 * The app services: every IPC call implemented over the core, for any transport (Electron main, the
 * browser test host). See app-core.ts.
 */
export { AppCore, type AppCoreOptions } from './app-core.ts';
export { type AppLog, consoleLog, silentLog } from './log.ts';
export { type AppPlatform, RecordingPlatform } from './platform.ts';
export { Redactor } from './redaction.ts';
export {
  type DemoMarketHandle,
  type DemoReason,
  type MarketChoice,
  type StartDemoMarket,
  DEMO_DATABASE_FILE_NAME,
  chooseMarket,
  demoHandleOf,
  demoSeqStart,
} from './market.ts';
export { MarketSession, mirrorFile, type SessionSyncOptions } from './session.ts';
export { SettingsStore, SETTINGS_FILE_NAME, type AppSettings } from './settings.ts';
export { checkExternalLink, EXTERNAL_LINK_HOSTS } from './external-links.ts';
export { resolveStaticFile, contentTypeOf, staticFileHeaders } from './static-files.ts';
export { describeAppError } from './errors.ts';
