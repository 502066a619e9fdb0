/**
 * Everything the four.meme client throws. Like viem's errors, each class has a
 * literal `name` to switch on and a `shortMessage` fit to show a user; `message`
 * adds the details (path, status) for logs. Access tokens never appear in them.
 */
export abstract class FourMemeError extends Error {
  readonly shortMessage: string;
  /** The API path that failed, e.g. `/private/token/upload`. */
  readonly path: string;

  constructor(shortMessage: string, args: { path: string; details?: string; cause?: unknown }) {
    const details = [`Path: ${args.path}`, args.details].filter(Boolean).join("\n");
    super(`${shortMessage}\n\n${details}`, { cause: args.cause });
    this.shortMessage = shortMessage;
    this.path = args.path;
  }
}

/**
 * four.meme answered with a non-2xx status or a non-zero `code`, or could not
 * be reached at all (`status` null).
 */
export class FourMemeHttpError extends FourMemeError {
  override name = "FourMemeHttpError" as const;
  readonly status: number | null;
  /** The API's own `code`, when the answer had one. */
  readonly code: string | null;
  /** The API's `msg`, or what went wrong on the way. */
  readonly msg: string;

  constructor(args: {
    path: string;
    status: number | null;
    code?: string | null;
    msg: string;
    cause?: unknown;
  }) {
    super(
      args.status === null
        ? `four.meme could not be reached: ${args.msg}`
        : `four.meme refused the request: ${args.msg}`,
      {
        path: args.path,
        details: [
          args.status === null ? null : `Status: ${args.status}`,
          args.code ? `Code: ${args.code}` : null,
        ]
          .filter(Boolean)
          .join("\n"),
        cause: args.cause,
      },
    );
    this.status = args.status;
    this.code = args.code ?? null;
    this.msg = args.msg;
  }
}

/** The access token was refused as expired or invalid; logging in again fixes it. */
export class FourMemeAuthExpiredError extends FourMemeError {
  override name = "FourMemeAuthExpiredError" as const;
  readonly msg: string;

  constructor(args: { path: string; msg: string; cause?: unknown }) {
    super("The four.meme session has expired. Log in again.", {
      path: args.path,
      details: `Server said: ${args.msg}`,
      cause: args.cause,
    });
    this.msg = args.msg;
  }
}

/** four.meme would not take the token image (wrong type, too large, external URL...). */
export class FourMemeImageRefusedError extends FourMemeError {
  override name = "FourMemeImageRefusedError" as const;
  /** The API's reason, worth showing to the user as is. */
  readonly msg: string;

  constructor(args: { path: string; msg: string; cause?: unknown }) {
    super(`four.meme refused the image: ${args.msg}`, { path: args.path, cause: args.cause });
    this.msg = args.msg;
  }
}

/** No complete answer arrived within the client's timeout. */
export class FourMemeTimeoutError extends FourMemeError {
  override name = "FourMemeTimeoutError" as const;
  readonly timeout: number;

  constructor(args: { path: string; timeout: number; cause?: unknown }) {
    super(`four.meme did not answer within ${args.timeout / 1000} s.`, {
      path: args.path,
      cause: args.cause,
    });
    this.timeout = args.timeout;
  }
}

/** four.meme answered, but not in the shape this client knows (the API may have changed). */
export class FourMemeResponseError extends FourMemeError {
  override name = "FourMemeResponseError" as const;

  constructor(args: { path: string; reason: string; cause?: unknown }) {
    super("four.meme sent an answer this client does not understand.", {
      path: args.path,
      details: args.reason,
      cause: args.cause,
    });
  }
}
