/**
 * jsdom lacks CSS.escape, which the dialogs' focus trap (zag-js) calls when the DOM changes under an open modal.
 * Import this first in a test that opens a Modal.
 */
const css = (globalThis.CSS ?? {}) as { escape?: (value: string) => string };
css.escape ??= (value: string) => value.replace(/([^\w-])/g, '\\$1');
(globalThis as { CSS?: unknown }).CSS = css;
