import { useEffect, useId, useState } from "react";
import { createPortal } from "react-dom";
import { Link, useLocation } from "react-router";
import { Button } from "../../components/ui/button.tsx";
import { ConfirmDialog } from "../../components/ui/confirm-dialog.tsx";
import { Logo } from "../../components/ui/logo.tsx";
import { useAuth } from "../../features/auth/hooks/use-auth.ts";
import { isMenuLinkActive, LOGOUT_QUESTION, MENU_LINKS, SESSION_LINKS } from "./menu-links.ts";

/** Top bar on wide screens; on narrow ones the links fold behind a toggle. */
export function Menu() {
  const { pathname } = useLocation();
  const { status, isAdmin, logout } = useAuth();
  const [open, setOpen] = useState(false);
  const [confirmingLogout, setConfirmingLogout] = useState(false);
  const listId = useId();

  // Following a link folds the narrow menu again.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on navigation on purpose
  useEffect(() => setOpen(false), [pathname]);

  const links = MENU_LINKS.filter((link) => !link.adminOnly || isAdmin);

  return (
    <header className="sticky top-0 z-30 border-b border-line bg-ink/85 backdrop-blur">
      <nav
        aria-label="Main"
        className="mx-auto flex w-full max-w-6xl flex-wrap items-center gap-x-6 gap-y-2 px-4 py-3"
      >
        <Link to="/" aria-label="launch bundler home" className="mr-auto flex md:mr-4">
          <Logo />
        </Link>
        <button
          type="button"
          className="px-1 text-dim hover:text-accent md:hidden"
          aria-expanded={open}
          aria-controls={listId}
          aria-label="Toggle menu"
          onClick={() => setOpen((value) => !value)}
        >
          {open ? "[×]" : "[≡]"}
        </button>
        <ul
          id={listId}
          className={`${open ? "flex" : "hidden"} w-full flex-col gap-3 border-t border-line pt-3 md:flex md:w-auto md:flex-1 md:flex-row md:flex-wrap md:items-center md:gap-x-3 md:gap-y-1 md:border-0 md:pt-0 2xl:gap-x-5`}
        >
          {links.map((link) => {
            const active = isMenuLinkActive(pathname, link.to);
            return (
              <li key={link.to}>
                <Link
                  to={link.to}
                  aria-current={active ? "page" : undefined}
                  className={`whitespace-nowrap ${active ? "text-accent" : "text-dim transition-colors hover:text-fg"}`}
                >
                  {link.label}
                </Link>
              </li>
            );
          })}
          {status === "authenticated" && (
            <>
              {/* SPEC §2's menu names no way to /referral or /account: they sit with [logout]. */}
              {SESSION_LINKS.map((link, index) => {
                const active = isMenuLinkActive(pathname, link.to);
                return (
                  <li key={link.to} className={index === 0 ? "md:ml-auto" : undefined}>
                    <Link
                      to={link.to}
                      aria-current={active ? "page" : undefined}
                      className={`whitespace-nowrap ${active ? "text-accent" : "text-dim transition-colors hover:text-fg"}`}
                    >
                      {link.label}
                    </Link>
                  </li>
                );
              })}
              <li>
                <Button variant="bracket" onClick={() => setConfirmingLogout(true)}>
                  [logout]
                </Button>
              </li>
            </>
          )}
        </ul>
      </nav>
      {/* In <body>: the header's backdrop blur would hold a fixed dialog inside the bar. */}
      {confirmingLogout &&
        createPortal(
          <ConfirmDialog
            title="Log out"
            message={LOGOUT_QUESTION}
            confirmLabel="[logout]"
            onCancel={() => setConfirmingLogout(false)}
            onConfirm={() => {
              setConfirmingLogout(false);
              void logout();
            }}
          />,
          document.body,
        )}
    </header>
  );
}
