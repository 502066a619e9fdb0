// Where the browser tests find Chromium (scripts/test.mjs installs it when it is missing).
//
// Debian's chromium-headless-shell: the same Blink and V8 as its chromium, without the full
// browser's UI process work, and what Playwright itself runs for headless Chromium. On this
// 2-core machine a first-time visitor (a fresh context, the app loaded, a free key, a second
// page) cost 3.4-3.6 s and 2.9 s of CPU in the full browser, 2.2-2.3 s and 1.6-1.8 s in the
// shell (2026-12-07, same run, alternated); the browser pass is bound by that CPU.
// CHROMIUM_PATH points the tests at another build.
export const HEADLESS_SHELL = "/usr/bin/chromium-headless-shell";
