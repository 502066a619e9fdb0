/** Domain errors: a literal name, a short message a user can read, and an HTTP status. */
export class AppError extends Error {
  override readonly name: string = "AppError";
  readonly statusCode: number = 500;
  constructor(readonly shortMessage: string) {
    super(shortMessage);
  }
}

export class BadRequestError extends AppError {
  override readonly name = "BadRequestError";
  override readonly statusCode = 400;
}

export class UnauthorizedError extends AppError {
  override readonly name = "UnauthorizedError";
  override readonly statusCode = 401;
}

export class ForbiddenError extends AppError {
  override readonly name = "ForbiddenError";
  override readonly statusCode = 403;
}

export class NotFoundError extends AppError {
  override readonly name = "NotFoundError";
  override readonly statusCode = 404;
}

export class ConflictError extends AppError {
  override readonly name = "ConflictError";
  override readonly statusCode = 409;
}

/** A quota per time (wallets per day, free keys per address): wait, or ask for less. */
export class TooManyRequestsError extends AppError {
  override readonly name = "TooManyRequestsError";
  override readonly statusCode = 429;
}

export class ServiceUnavailableError extends AppError {
  override readonly name = "ServiceUnavailableError";
  override readonly statusCode = 503;
}
