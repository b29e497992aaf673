/** ENGRAM_CHROMIUM, else Debian's /usr/bin/chromium. */
export declare const CHROMIUM_PATH: string;
/** Returns a Chromium for the e2e tests, installing Debian's with apt when root; throws one line saying what to run otherwise. */
export declare function ensureChromium(): string;
