import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

/** The API server the dev server proxies to; in production the server serves this build itself. */
const apiTarget = "http://127.0.0.1:8080";

export default defineConfig({
  plugins: [react(), tailwindcss()],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    rolldownOptions: {
      output: {
        // Libraries change less often than the app: separate chunks stay cached across deploys.
        codeSplitting: {
          groups: [
            {
              name: "react",
              test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/,
            },
            // Libraries only lazily loaded code uses stay out of it: they go with that code's
            // chunks, not the initial load. The payment QR code, viem's keys and units, the
            // wallet table, and the supply chart (recharts and what it pulls in: d3, redux,
            // immer, …, by far the largest, loaded only when a bundle's chart is drawn).
            {
              name: "vendor",
              test: new RegExp(
                `node_modules[\\\\/](?!(${[
                  "qrcode\\.react",
                  "viem",
                  "ox",
                  "abitype",
                  "@noble",
                  "@scure",
                  "@tanstack[\\\\/](react-table|table-core)",
                  "recharts",
                  "victory-vendor",
                  "d3-[a-z-]+",
                  "internmap",
                  "@reduxjs",
                  "redux",
                  "redux-thunk",
                  "react-redux",
                  "reselect",
                  "immer",
                  "es-toolkit",
                  "decimal\\.js-light",
                  "eventemitter3",
                  "tiny-invariant",
                  "use-sync-external-store",
                  "clsx",
                ].join("|")})[\\\\/])`,
              ),
            },
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      "/api": { target: apiTarget },
      "/socket.io": { target: apiTarget, ws: true },
    },
  },
});
