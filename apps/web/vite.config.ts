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
            // Libraries only lazily loaded pages use (the payment QR code, viem's keys and
            // units) stay out of it: they go with those pages' chunks, not the initial load.
            {
              name: "vendor",
              test: /node_modules[\\/](?!(qrcode\.react|viem|ox|abitype|@noble|@scure)[\\/])/,
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
