import { Component, type ErrorInfo, type ReactNode } from "react";
import { isRouteErrorResponse, useRouteError } from "react-router";

function describe(error: unknown): { message: string; stack: string | null } {
  if (error instanceof Error) return { message: error.message, stack: error.stack ?? null };
  if (isRouteErrorResponse(error)) {
    return { message: `${error.status} ${error.statusText}`, stack: null };
  }
  return { message: String(error), stack: null };
}

/** What the app shows when rendering fails: the message and its stack, in plain text. */
export function ErrorFallback({ error }: { error: unknown }) {
  const { message, stack } = describe(error);
  return (
    <div role="alert" className="mx-auto flex w-full max-w-4xl flex-col gap-4 px-4 py-16">
      <p className="text-bad">
        <span aria-hidden="true">✗ </span>Something went wrong
      </p>
      <p className="break-words text-lg text-fg">{message}</p>
      {stack && (
        <pre className="max-h-[60vh] overflow-auto rounded-sm border border-line bg-panel p-4 text-xs leading-relaxed text-dim">
          {stack}
        </pre>
      )}
      <p className="flex gap-6 text-dim">
        <button
          type="button"
          className="hover:text-accent"
          onClick={() => window.location.reload()}
        >
          [reload]
        </button>
        <a href="/" className="hover:text-accent">
          [go to home]
        </a>
      </p>
    </div>
  );
}

/** For the router: errors thrown while rendering a route. */
export function RouteErrorFallback() {
  return <ErrorFallback error={useRouteError()} />;
}

/** The top-level boundary, around everything the router does not cover (providers). */
export class AppErrorBoundary extends Component<{ children: ReactNode }, { error: unknown }> {
  override state = { error: null as unknown };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error(error, info.componentStack);
  }

  override render() {
    return this.state.error === null ? (
      this.props.children
    ) : (
      <ErrorFallback error={this.state.error} />
    );
  }
}
