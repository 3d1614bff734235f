/** The oldest Node that runs Skindesk (package.json's engines). */
export const NODE_MINIMUM: string;
/** Whether a Node version as `process.versions.node` spells it is older than NODE_MINIMUM. */
export function nodeIsTooOld(version: string): boolean;
/** Ends the process with a plain message when this Node is too old; `command` names who says it. */
export function requireNode(command: string): void;
