import { createHash, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { type Address, verifyMessage } from "viem";
import type { z } from "zod";
import {
  createBodySchema,
  defaultRaisedTokens,
  deterministicCreateArgs,
  imageKind,
  loginBodySchema,
  nonceBodySchema,
} from "./fakeFourMemeData.ts";
import {
  type Answer,
  badRequest,
  fail,
  ok,
  type ParsedRequest,
  parseRequest,
  readBody,
  send,
  summariseForm,
} from "./fakeFourMemeHttp.ts";
import { fourMemeLoginMessage } from "./loginFourMeme.ts";
import { addressSchema } from "./schemas.ts";
import type { FourMemeCreateArgs } from "./types.ts";

export interface StartFakeFourMemeServerParameters {
  /** Signs an accepted create; plug the local launch signer in here. Defaults to deterministic hex. */
  signCreate?: (request: FakeCreateRequest) => FourMemeCreateArgs | Promise<FourMemeCreateArgs>;
  /** Answers `GET /private/token/get`; null or undefined answers 404. Defaults to 404 for all. */
  getTokenInfo?: (
    address: Address,
  ) => FakeTokenInfo | null | undefined | Promise<FakeTokenInfo | null | undefined>;
  /** Largest image accepted, in bytes; defaults to 5 MiB. */
  maxImageBytes?: number;
  /** What `GET /public/config` lists; defaults to BNB and USDT raises. */
  raisedTokens?: Record<string, unknown>[];
}

export interface FakeFourMemeServer {
  /** The base URL to give `createFourMemeClient`, ending in `/meme-api/v1`. */
  url: string;
  /** Every request received, in order. */
  requests: FakeFourMemeRequest[];
  /** Expires every token issued so far; with `includeFuture`, new ones are born expired too. */
  expireTokens(options?: { includeFuture?: boolean }): void;
  /** Answers one route (e.g. `"GET /public/config"`) differently from now on: late, or with another body. */
  intercept(route: FakeFourMemeRoute, answer: FakeFourMemeAnswer): void;
  close(): Promise<void>;
}

export type FakeFourMemeRoute = `${"GET" | "POST"} /${string}`;

export interface FakeFourMemeAnswer {
  /** Waits this long first; without `status` or `body` the normal answer follows. */
  delayMs?: number;
  status?: number;
  /** Sent as is when a string, as JSON otherwise. */
  body?: unknown;
}

export interface FakeFourMemeRequest {
  method: string;
  /** Below the API base, e.g. `/private/token/upload`. */
  path: string;
  query: Record<string, string>;
  /** The `meme-web-access` header. */
  accessToken: string | undefined;
  contentType: string | undefined;
  /** Parsed JSON, or for multipart the fields with files summarised. */
  body: unknown;
}

export interface FakeUploadedFile {
  fileName: string;
  type: string;
  size: number;
}

export type FakeCreateTokenBody = z.output<typeof createBodySchema>;
export interface FakeCreateRequest {
  /** The logged-in deployer who asked. */
  creator: Address;
  body: FakeCreateTokenBody;
}

export type FakeTokenInfo = {
  address: Address;
  name: string;
  shortName: string;
  image?: string;
  status?: string;
  tradeUrl?: string;
} & Record<string, unknown>;

const apiPrefix = "/meme-api/v1";

/**
 * A local stand-in for four.meme's API with its documented shapes and errors:
 * real signature checks at login, expirable tokens, image refusals, signed
 * create answers. Listens on 127.0.0.1 on a free port.
 *
 * @example
 * const server = await startFakeFourMemeServer();
 * const client = createFourMemeClient({ baseUrl: server.url });
 * await server.close();
 */
export const startFakeFourMemeServer = async (
  params: StartFakeFourMemeServerParameters = {},
): Promise<FakeFourMemeServer> => {
  const maxImageBytes = params.maxImageBytes ?? 5 * 1024 * 1024;
  const raisedTokens = params.raisedTokens ?? defaultRaisedTokens;
  const signCreate = params.signCreate ?? deterministicCreateArgs;
  const nonces = new Map<string, string>();
  const tokens = new Map<string, { address: Address; expired: boolean }>();
  const images = new Map<string, { type: string; bytes: Uint8Array }>();
  const intercepts = new Map<string, FakeFourMemeAnswer>();
  const timers = new Set<NodeJS.Timeout>();
  const requests: FakeFourMemeRequest[] = [];
  let bornExpired = false;
  let origin = "";
  let closing: Promise<void> | undefined;

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timers.add(timer);
    });

  const session = (accessToken: string | undefined) => {
    const found = accessToken === undefined ? undefined : tokens.get(accessToken);
    if (!found) return fail(401, 401, "Access token invalid, please log in again");
    if (found.expired) return fail(401, 401, "Access token expired, please log in again");
    return found;
  };

  const routes: Record<string, (request: ParsedRequest) => Answer | Promise<Answer>> = {
    "POST /private/user/nonce/generate": ({ body }) => {
      const parsed = nonceBodySchema.safeParse(body);
      if (!parsed.success) return badRequest(parsed.error);
      const nonce = randomBytes(16).toString("hex");
      nonces.set(parsed.data.accountAddress.toLowerCase(), nonce);
      return ok(nonce);
    },
    "POST /private/user/login/dex": async ({ body }) => {
      const parsed = loginBodySchema.safeParse(body);
      if (!parsed.success) return badRequest(parsed.error);
      const { address, signature } = parsed.data.verifyInfo;
      const nonce = nonces.get(address.toLowerCase());
      if (!nonce) return fail(200, 10_001, "Nonce not found, generate a new one");
      nonces.delete(address.toLowerCase());
      const message = fourMemeLoginMessage(nonce);
      const valid = await verifyMessage({ address, message, signature }).catch(() => false);
      if (!valid) return fail(200, 10_002, "Signature verification failed");
      const accessToken = randomBytes(24).toString("hex");
      tokens.set(accessToken, { address, expired: bornExpired });
      return ok(accessToken);
    },
    "POST /private/token/upload": ({ accessToken, form }) => {
      const auth = session(accessToken);
      if ("answer" in auth) return auth;
      const file = form?.get("file");
      if (file === undefined || file === null) {
        return fail(200, 20_001, "Upload the image as field file");
      }
      if (typeof file === "string") {
        return fail(200, 20_002, "External image URLs are not accepted");
      }
      const kind = imageKind(file.type, file.bytes);
      if (!kind) return fail(200, 20_003, "Only jpeg, png, gif, bmp or webp images are accepted");
      if (file.bytes.length > maxImageBytes) {
        return fail(200, 20_004, `Image is larger than ${maxImageBytes} bytes`);
      }
      const id = `${createHash("sha256").update(file.bytes).digest("hex").slice(0, 32)}.${kind}`;
      images.set(id, { type: file.type, bytes: file.bytes });
      return ok(`${origin}/images/${id}`);
    },
    "GET /public/config": () => ok(raisedTokens),
    "POST /private/token/create": async ({ accessToken, body }) => {
      const auth = session(accessToken);
      if ("answer" in auth) return auth;
      const parsed = createBodySchema.safeParse(body);
      if (!parsed.success) return badRequest(parsed.error);
      const id = parsed.data.imgUrl.startsWith(`${origin}/images/`)
        ? parsed.data.imgUrl.slice(`${origin}/images/`.length)
        : "";
      if (!images.has(id)) {
        return fail(200, 30_001, "imgUrl must be an image uploaded to four.meme");
      }
      try {
        return ok(await signCreate({ creator: auth.address, body: parsed.data }));
      } catch (error) {
        return fail(200, 30_002, error instanceof Error ? error.message : String(error));
      }
    },
    "GET /private/token/get": async ({ query }) => {
      const address = addressSchema.safeParse(query.address);
      if (!address.success) return badRequest(address.error);
      const info = await params.getTokenInfo?.(address.data);
      return info ? ok(info) : fail(404, 404, "Token not found");
    },
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", origin);
    if (req.method === "GET" && url.pathname.startsWith("/images/")) {
      const image = images.get(url.pathname.slice("/images/".length));
      if (!image) return send(res, fail(404, 404, "Not found"));
      res.writeHead(200, { "content-type": image.type }).end(image.bytes);
      return;
    }
    const path = url.pathname.startsWith(apiPrefix) ? url.pathname.slice(apiPrefix.length) : "";
    const raw = await readBody(req, maxImageBytes + 1024 * 1024);
    if (raw === null) return send(res, fail(413, 413, "Request body too large"));
    const request = await parseRequest(req, url, raw);
    requests.push({
      method: req.method ?? "GET",
      path,
      query: request.query,
      accessToken: request.accessToken,
      contentType: req.headers["content-type"],
      body: request.form ? summariseForm(request.form) : request.body,
    });
    const route = `${req.method} ${path}`;
    const intercept = intercepts.get(route);
    if (intercept?.delayMs) await sleep(intercept.delayMs);
    if (intercept && (intercept.status !== undefined || intercept.body !== undefined)) {
      return send(res, { answer: { status: intercept.status ?? 200, body: intercept.body } });
    }
    const handler = routes[route];
    send(res, handler ? await handler(request) : fail(404, 404, "Not found"));
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) send(res, fail(500, 500, String(error)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: `${origin}${apiPrefix}`,
    requests,
    expireTokens: ({ includeFuture = false } = {}) => {
      for (const token of tokens.values()) token.expired = true;
      bornExpired = includeFuture;
    },
    intercept: (route, answer) => {
      intercepts.set(route, answer);
    },
    close: () => {
      closing ??= new Promise<void>((resolve, reject) => {
        for (const timer of timers) clearTimeout(timer);
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
      return closing;
    },
  };
};
