/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Origin of the API server, e.g. https://api.example.com. Empty means same origin. */
  readonly VITE_API_BASE?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
