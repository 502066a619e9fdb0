import type { ReactNode } from "react";

/** A titled panel of a form, like a terminal pane. */
export function Section({
  title,
  aside,
  children,
}: {
  title: string;
  aside?: ReactNode;
  children: ReactNode;
}) {
  const id = `section-${title.toLowerCase().replace(/\W+/g, "-")}`;
  return (
    <section
      aria-labelledby={id}
      className="flex flex-col gap-4 rounded-md border border-line bg-panel/80 p-5"
    >
      <div className="flex flex-wrap items-baseline justify-between gap-2 border-b border-line pb-2">
        <h2 id={id} className="font-semibold text-fg">
          <span className="text-accent"># </span>
          {title}
        </h2>
        {aside}
      </div>
      {children}
    </section>
  );
}
