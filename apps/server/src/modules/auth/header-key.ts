import type { FastifyRequest } from "fastify";

/**
 * The `x-auth-key` a request carries, if any. Public routes read it to know a logged-in caller
 * (a buyer using their own referral code) without requiring a key.
 */
export const headerKey = (request: FastifyRequest): string | undefined => {
  const header = request.headers["x-auth-key"];
  return (Array.isArray(header) ? header[0] : header) || undefined;
};
