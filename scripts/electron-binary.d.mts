/** The Electron executable under `root`'s node_modules, or undefined when its binary was not installed. */
export function electronBinary(root: string): string | undefined;
export const MISSING_ELECTRON_REASON: string;
