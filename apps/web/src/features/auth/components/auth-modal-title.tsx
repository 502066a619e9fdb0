import type { ReactNode } from "react";

export const AUTH_MODAL_TITLE_ID = "auth-modal-title";

/** Each step's heading; it names the dialog. */
export function AuthModalTitle({ children }: { children: ReactNode }) {
  return (
    <h2 id={AUTH_MODAL_TITLE_ID} className="text-lg font-semibold text-fg">
      {children}
    </h2>
  );
}
