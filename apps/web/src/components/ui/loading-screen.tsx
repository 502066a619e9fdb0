import { Spinner } from "./spinner.tsx";

export function LoadingScreen({ label = "loading" }: { label?: string }) {
  return (
    <output className="flex min-h-[40vh] items-center justify-center gap-3 text-dim">
      <Spinner />
      <span>
        {label}
        <span className="animate-blink">...</span>
      </span>
    </output>
  );
}
