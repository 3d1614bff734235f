// Whether Electron can open a window on this machine, decided before `npm start` builds anything. Kept
// apart from start.mjs so the decision is tested as a unit (test/unit/tooling/display-check.test.ts).

/**
 * Why there is no display for Electron, or undefined when there is one. Only Linux needs DISPLAY (X11)
 * or WAYLAND_DISPLAY: macOS and Windows always have a window system, whatever their environment says.
 * An empty variable names no display (a shell's `DISPLAY=` leaves it set but empty).
 */
export function missingDisplayReason(platform, env) {
  if (platform !== 'linux') return undefined;
  if (env.DISPLAY || env.WAYLAND_DISPLAY) return undefined;
  return 'there is no display to open the Skindesk window on (neither DISPLAY nor WAYLAND_DISPLAY is set)';
}

/** The words `npm start` leaves the user with: what is missing, and every way to go on without a window. */
export function noDisplayMessage(reason) {
  return [
    `npm start: ${reason}.`,
    'To work without a window, use the command line over the same core:',
    '  npx skindesk demo    run the demo market',
    '  npx skindesk sync    mirror the marketplace book into the local database',
    '  npx skindesk help    every command',
    'Or open the app in a browser with `npm run web`, or give Electron a virtual display: `xvfb-run npm start`.',
  ].join('\n');
}
