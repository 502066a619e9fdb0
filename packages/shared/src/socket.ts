/** Realtime events (SPEC §7). Per-user events carry the owner's key in their name. */
export interface ServerToClientEvents {
  block: (blockNumber: number) => void;
  [userEvent: `launch_status_${string}`]: (payload: { message: string }) => void;
  [userEvent: `dispersal_status_${string}`]: (payload: { message: string }) => void;
}

export const launchStatusEvent = (authKey: string) => `launch_status_${authKey}` as const;
export const dispersalStatusEvent = (authKey: string) => `dispersal_status_${authKey}` as const;

/** The handshake carries the access key in `auth`, never in the query string. */
export interface SocketHandshakeAuth {
  key?: string;
}
