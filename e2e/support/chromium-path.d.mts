export declare const HEADLESS_SHELL: string;
