import { Socket } from "node:net";
import type { FastifyReply, FastifyRequest } from "fastify";

/** How much of an oversized body the server reads (and drops) after its 413, at most. */
export const OVERSIZED_DRAIN_BYTES = 8 * 1024 * 1024;
/** How long it goes on reading one, at most. */
const OVERSIZED_DRAIN_MS = 30_000;
/** How often the bytes read are looked at meanwhile. */
const DRAIN_CHECK_MS = 50;

/**
 * Lets the client of an oversized body read its 413. Fastify answers before reading the body
 * and asks for the connection to be closed, which Node does as soon as the answer is out, with
 * the client still sending: a client that reads only once its request is sent (a browser's
 * upload, many HTTP libraries) gets the connection reset (EPIPE, ECONNRESET) instead of the
 * answer. Instead the connection is kept and the rest of the body read and dropped (what
 * nginx's "lingering close" does), up to OVERSIZED_DRAIN_BYTES or OVERSIZED_DRAIN_MS: past
 * either the connection is closed, so a client cannot make the server read without end.
 * Call it before sending the 413.
 */
export const drainOversizedBody = (request: FastifyRequest, reply: FastifyReply): void => {
  reply.removeHeader("connection");
  const incoming = request.raw;
  // Kept alive, Node reads the rest of the body and drops it (its parser has to, to find the
  // next request), without a 'data' event to count it by: the socket's bytes read are counted.
  reply.raw.shouldKeepAlive = true;
  const socket = incoming.socket;
  // An injected request (tests) has no connection to keep or close.
  if (!(socket instanceof Socket)) return;
  const start = socket.bytesRead;
  const deadline = Date.now() + OVERSIZED_DRAIN_MS;
  const watch = setInterval(() => {
    if (socket.bytesRead - start > OVERSIZED_DRAIN_BYTES || Date.now() > deadline) socket.destroy();
  }, DRAIN_CHECK_MS);
  watch.unref();
  const done = () => clearInterval(watch);
  if (incoming.complete) done();
  else incoming.once("end", done);
  socket.once("close", done);
};
