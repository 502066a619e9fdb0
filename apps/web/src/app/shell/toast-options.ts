import { TOAST_DURATION_MS, TOAST_LIMIT } from "@bundler/shared";
import type { DefaultToastOptions, ToastPosition } from "react-hot-toast";

/** SPEC §2: toasts appear top-center. */
export const TOAST_POSITION: ToastPosition = "top-center";

/** SPEC §9: never more than this many toasts on screen; the oldest go first. */
export const MAX_VISIBLE_TOASTS = TOAST_LIMIT;

/**
 * SPEC §9 durations (error 4 s, success 2 s, blank 4 s) and the terminal look. Per type, not
 * a global duration, which would also end loading toasts (react-hot-toast: until dismissed).
 */
export const TOAST_OPTIONS: DefaultToastOptions = {
  blank: { duration: TOAST_DURATION_MS.blank },
  success: {
    duration: TOAST_DURATION_MS.success,
    iconTheme: { primary: "#3fd17a", secondary: "#090b0a" },
  },
  error: {
    duration: TOAST_DURATION_MS.error,
    iconTheme: { primary: "#ff5f56", secondary: "#090b0a" },
  },
  style: {
    background: "#151a19",
    color: "#d8dedb",
    border: "1px solid #34403d",
    borderRadius: "4px",
    fontFamily: "inherit",
    fontSize: "13px",
    maxWidth: "480px",
  },
};
