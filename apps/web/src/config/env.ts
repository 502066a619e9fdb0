/**
 * The only module that reads `import.meta.env`. Every bad variable is reported at once.
 */
interface Env {
  /** Origin prefixed to every API path and used by the socket; "" means same origin. */
  apiBase: string;
}

const ORIGIN_PATTERN = /^https?:\/\/[^/?#\s]+$/;

export function parseEnv(raw: Partial<Record<string, unknown>>): Env {
  const errors: string[] = [];
  const apiBase = raw.VITE_API_BASE ?? "";
  if (typeof apiBase !== "string") {
    errors.push("VITE_API_BASE must be a string");
  }
  const base = typeof apiBase === "string" ? apiBase.trim().replace(/\/+$/, "") : "";
  if (base !== "" && !ORIGIN_PATTERN.test(base)) {
    errors.push(
      `VITE_API_BASE must be empty or an origin like https://api.example.com (got "${base}")`,
    );
  }
  if (errors.length > 0) {
    throw new Error(`Invalid environment:\n- ${errors.join("\n- ")}`);
  }
  return { apiBase: base };
}

export const env: Env = parseEnv(import.meta.env);
