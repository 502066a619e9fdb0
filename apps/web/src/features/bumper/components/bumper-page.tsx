import { Link } from "react-router";
import { ContentLayout } from "../../../components/layouts/content-layout.tsx";
import { useAuth } from "../../auth/hooks/use-auth.ts";
import { BumperWorkspace } from "./bumper-workspace.tsx";

/** /tools/bumper: says why it is empty while logging in or logged out, else the bumper tool. */
export function BumperPage() {
  const { status } = useAuth();
  return (
    <ContentLayout title="Bumper">
      <Link to="/tools" className="mb-6 inline-block text-dim hover:text-accent">
        [back to tools]
      </Link>
      {status === "loading" ? (
        <p className="text-dim" role="status">
          Authenticating...
        </p>
      ) : status !== "authenticated" ? (
        <p className="text-dim">Authentication required. Please log in to use the Bumper tool.</p>
      ) : (
        <BumperWorkspace />
      )}
    </ContentLayout>
  );
}
