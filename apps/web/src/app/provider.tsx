import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { type ReactNode, useEffect, useState } from "react";
import { AuthProvider } from "../features/auth/components/auth-provider.tsx";
import { useAuth } from "../features/auth/hooks/use-auth.ts";
import { ApiError, notifyApiError } from "../lib/api-client.ts";
import { connectSocket, setSocketAuthRejectedHandler } from "../lib/socket.ts";
import { AppToaster } from "./shell/app-toaster.tsx";
import { AppErrorBoundary } from "./shell/error-fallback.tsx";

function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // Each failure already toasts; retry only when the server could not be reached.
        retry: (count, error) => error instanceof ApiError && error.status === null && count < 2,
        refetchOnWindowFocus: false,
      },
    },
  });
}

/** Keeps the socket's handshake key in step with the session (anonymous still gets `block`). */
function SocketSession() {
  const { status, authKey, logout } = useAuth();
  useEffect(() => {
    if (status === "authenticated" || status === "anonymous") connectSocket(authKey);
  }, [status, authKey]);
  useEffect(() => {
    setSocketAuthRejectedHandler(() => {
      notifyApiError(new ApiError(401));
      void logout();
    });
  }, [logout]);
  return null;
}

export function AppProvider({ children }: { children: ReactNode }) {
  const [queryClient] = useState(createQueryClient);
  return (
    <AppErrorBoundary>
      <QueryClientProvider client={queryClient}>
        <AuthProvider>
          <SocketSession />
          {children}
        </AuthProvider>
        <AppToaster />
      </QueryClientProvider>
    </AppErrorBoundary>
  );
}
