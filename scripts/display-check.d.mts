/**
 * Why Electron cannot open a window here, or undefined when it can: on Linux it needs an X11 or Wayland
 * display named in the environment; macOS and Windows always have one.
 */
export function missingDisplayReason(
  platform: NodeJS.Platform,
  env: Record<string, string | undefined>,
): string | undefined;

/** What `npm start` prints before exiting when there is no display: what is missing and how to run headless. */
export function noDisplayMessage(reason: string): string;
