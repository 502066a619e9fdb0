import type { IncomingMessage, ServerResponse } from "node:http";
import { z } from "zod";

/** Plumbing of the fake four.meme server: answers in four.meme's envelope, body parsing. */

export interface Answer {
  answer: { status: number; body: unknown };
}

export interface ParsedRequest {
  query: Record<string, string>;
  accessToken: string | undefined;
  body: unknown;
  form: Map<string, string | FakeFile> | undefined;
}

export interface FakeFile {
  fileName: string;
  type: string;
  size: number;
  bytes: Uint8Array;
}

export const ok = (data: unknown): Answer => ({
  answer: { status: 200, body: { code: 0, msg: "success", data } },
});

export const fail = (status: number, code: number, msg: string): Answer => ({
  answer: { status, body: { code, msg, data: null } },
});

export const badRequest = (error: z.ZodError) => fail(400, 400, z.prettifyError(error));

export const send = (res: ServerResponse, { answer }: Answer) => {
  const body = typeof answer.body === "string" ? answer.body : JSON.stringify(answer.body);
  res.writeHead(answer.status, { "content-type": "application/json" }).end(body);
};

/** The body, or null once it passes `limit` (the rest is drained, so the answer still arrives). */
export const readBody = (req: IncomingMessage, limit: number) =>
  new Promise<Buffer | null>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
    });
    req.on("end", () => resolve(size <= limit ? Buffer.concat(chunks) : null));
    req.on("error", reject);
  });

export const parseRequest = async (
  req: IncomingMessage,
  url: URL,
  raw: Buffer,
): Promise<ParsedRequest> => {
  const contentType = req.headers["content-type"] ?? "";
  const header = req.headers["meme-web-access"];
  const parsed: ParsedRequest = {
    query: Object.fromEntries(url.searchParams),
    accessToken: Array.isArray(header) ? header[0] : header,
    body: undefined,
    form: undefined,
  };
  if (contentType.startsWith("multipart/form-data")) {
    // undici's Request parses multipart for us.
    const request = new Request(url, {
      method: "POST",
      headers: { "content-type": contentType },
      body: new Uint8Array(raw),
    });
    const form = await request.formData().catch(() => undefined);
    if (form) {
      const entries: Promise<[string, string | FakeFile]>[] = [];
      form.forEach((value, key) => {
        entries.push(toEntry(key, value));
      });
      parsed.form = new Map(await Promise.all(entries));
    }
  } else if (raw.length > 0) {
    try {
      parsed.body = JSON.parse(raw.toString("utf8"));
    } catch {
      parsed.body = raw.toString("utf8");
    }
  }
  return parsed;
};

const toEntry = async (key: string, value: string | File): Promise<[string, string | FakeFile]> => {
  if (typeof value === "string") return [key, value];
  const bytes = new Uint8Array(await value.arrayBuffer());
  return [key, { fileName: value.name, type: value.type, size: value.size, bytes }];
};

export const summariseForm = (form: Map<string, string | FakeFile>) =>
  Object.fromEntries(
    [...form].map(([key, value]) => [
      key,
      typeof value === "string"
        ? value
        : { fileName: value.fileName, type: value.type, size: value.size },
    ]),
  );
