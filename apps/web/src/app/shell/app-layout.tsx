import { Outlet, ScrollRestoration } from "react-router";
import { LoadingScreen } from "../../components/ui/loading-screen.tsx";
import { AuthModal } from "../../features/auth/components/auth-modal.tsx";
import { useAuth } from "../../features/auth/hooks/use-auth.ts";
import { NewsBanner } from "../../features/news/components/news-banner.tsx";
import { Footer } from "./footer.tsx";
import { Menu } from "./menu.tsx";
import { useReferralCapture } from "./use-referral-capture.ts";

/**
 * News, menu, page and footer; the auth modal blocks all of it while nobody is logged in,
 * or while the server cannot say whether the stored key is good. A `?referral=` link is
 * remembered whichever page it opens.
 */
export function AppLayout() {
  const { status } = useAuth();
  useReferralCapture();
  const blocked = status === "anonymous" || status === "unreachable";
  const waiting = status === "loading" || status === "unreachable";

  return (
    <>
      <div inert={blocked} className="flex min-h-dvh flex-col">
        <NewsBanner />
        <Menu />
        <main className="flex flex-1 flex-col">
          {waiting ? <LoadingScreen label="checking access key" /> : <Outlet />}
        </main>
        <Footer />
      </div>
      {blocked && <AuthModal />}
      <ScrollRestoration />
    </>
  );
}
