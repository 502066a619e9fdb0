/**
 * An endpoint as it may be printed: scheme, host and port only. RPC URLs often carry a
 * provider's API key in the path, the query or the credentials.
 */
export const displayUrl = (value: string): string => {
  try {
    const url = new URL(value);
    return `${url.protocol}//${url.host}`;
  } catch {
    return "(unparsable URL)";
  }
};
