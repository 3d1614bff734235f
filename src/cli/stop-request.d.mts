// Types of stop-request.mjs (plain JavaScript so bin/skindesk.mjs can load it before any TypeScript).
export type StopSignal = 'SIGINT' | 'SIGTERM';
export declare const REPEATED_SIGNAL_MS: number;
export declare function stopsOnSignal(argv: readonly string[]): boolean;
export declare function installStopHandling(): void;
export declare function releaseStopHandling(): void;
export declare function stopRequested(): StopSignal | null;
export declare function whenStopRequested(): Promise<StopSignal>;
