import { act } from "@testing-library/react";
import { getSocket } from "../lib/socket.ts";

/**
 * Delivers a server event to the app's socket listeners, as if it had just arrived over the
 * wire (component tests run without a socket.io server).
 */
export function deliverSocketEvent(name: string, payload: unknown): void {
  const socket = getSocket() as unknown as {
    listeners(event: string): Array<(p: unknown) => void>;
  };
  act(() => {
    for (const listener of socket.listeners(name)) listener(payload);
  });
}
