import { type ReactNode, useEffect } from "react";

export interface ContentLayoutProps {
  title: string;
  children: ReactNode;
}

/** A page's frame: its title (also the document title) and its body. */
export function ContentLayout({ title, children }: ContentLayoutProps) {
  useEffect(() => {
    document.title = `${title} · launch bundler`;
  }, [title]);

  return (
    <section className="mx-auto w-full max-w-6xl px-4 py-10">
      <div className="mb-6 flex items-baseline gap-2 text-xl">
        <span className="text-accent" aria-hidden="true">
          &gt;
        </span>
        <h1 className="font-semibold text-fg">{title}</h1>
      </div>
      {children}
    </section>
  );
}
