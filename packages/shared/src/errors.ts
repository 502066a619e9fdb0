/**
 * The error catalogue of SPEC §8: what a failed request means to a user.
 * The web api-client turns every failure into one of these and one toast.
 */
export interface CatalogueEntry {
  title: string;
  hint: string;
}

export const ERROR_CATALOGUE = {
  connection: {
    title: "Connection Error - The server is currently offline",
    hint: "Please try again later or contact support.",
  },
  rateLimit: {
    title: "Rate Limit Reached - Too many requests at once",
    hint: "Please wait a moment and try again.",
  },
  payloadTooLarge: {
    title: "Payload Too Large",
    hint: "Try a smaller image or fewer wallets.",
  },
  unauthorized: {
    title: "Authentication Error - Your session has expired",
    hint: "Please restart the bot and log in again.",
  },
  unexpected: {
    title: "Unexpected Error - Something went wrong",
    hint: "Please try again or contact support.",
  },
} as const satisfies Record<string, CatalogueEntry>;

export type CatalogueKey = keyof typeof ERROR_CATALOGUE;

/** `status` is the HTTP status, or null when no response arrived (connection refused). */
export const catalogueKeyFor = (status: number | null): CatalogueKey => {
  if (status === null) return "connection";
  if (status === 429) return "rateLimit";
  if (status === 413) return "payloadTooLarge";
  if (status === 401) return "unauthorized";
  return "unexpected";
};

/** Auth messages the web shows (SPEC §8). */
export const AUTH_MESSAGES = {
  failed: "Authentication failed",
  failedRetry: "Authentication failed. Please try again.",
  newKeyFailed: "Failed to generate new key. Please try again.",
  generateFailed: "Failed to generate access key",
  invalidKey: "Invalid access key",
  storageInsecure: "Unable to store data securely. Please check browser settings.",
  storeFailed: "Failed to store authentication key",
  clearFailed: "Failed to clear authentication key",
  noKeyProvided: "No authentication key provided",
  noKeyFound: "No auth key found",
  enterKey: "Please enter a valid access key",
  generated: "Free access key generated successfully!",
  validated: "Access key validated successfully!",
  copied: "Access key copied to clipboard!",
} as const;
