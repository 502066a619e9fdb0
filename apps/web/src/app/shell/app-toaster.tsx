import { useEffect } from "react";
import toast, {
  type Renderable,
  resolveValue,
  ToastBar,
  Toaster,
  useToasterStore,
} from "react-hot-toast";
import { toastsOverLimit } from "./toast-limit.ts";
import { MAX_VISIBLE_TOASTS, TOAST_OPTIONS, TOAST_POSITION } from "./toast-options.ts";

/** "Title\nhint" messages (the api client's) render as a bold title over a dim hint. */
function ToastText({ message }: { message: Renderable }) {
  if (typeof message !== "string" || !message.includes("\n")) return message;
  const [title, ...rest] = message.split("\n");
  return (
    <span className="flex flex-col gap-0.5 text-left">
      <span className="font-semibold">{title}</span>
      <span className="text-dim">{rest.join(" ")}</span>
    </span>
  );
}

export function AppToaster() {
  const { toasts } = useToasterStore();
  useEffect(() => {
    for (const t of toastsOverLimit(toasts, MAX_VISIBLE_TOASTS)) toast.dismiss(t.id);
  }, [toasts]);

  return (
    <Toaster position={TOAST_POSITION} toastOptions={TOAST_OPTIONS}>
      {(t) => (
        <ToastBar toast={t}>
          {({ icon }) => (
            <>
              {icon}
              <div className="mx-2 my-1 flex-1" {...t.ariaProps}>
                <ToastText message={resolveValue(t.message, t)} />
              </div>
            </>
          )}
        </ToastBar>
      )}
    </Toaster>
  );
}
