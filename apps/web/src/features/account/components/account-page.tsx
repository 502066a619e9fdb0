import { ContentLayout } from "../../../components/layouts/content-layout.tsx";
import { LoadProblem } from "../../../components/ui/load-problem.tsx";
import { Section } from "../../../components/ui/section.tsx";
import { failureText } from "../../../lib/api-error.ts";
import { useAuth } from "../../auth/hooks/use-auth.ts";
import { useAccount } from "../api/get-account.ts";
import { AccessKeyPanel } from "./access-key-panel.tsx";
import { BackupPanel } from "./backup-panel.tsx";
import { BuyKeyPanel } from "./buy-key-panel.tsx";

/** /account: the access key and what it is, a backup of every key, and buying another key. */
export function AccountPage() {
  const { authKey } = useAuth();
  const account = useAccount();
  if (!authKey) return null;
  return (
    <ContentLayout title="Account">
      <div className="flex flex-col gap-6">
        <Section title="Access Key">
          {account.isError && (
            <LoadProblem
              message={failureText(account.error, "Failed to load your account")}
              onRetry={() => void account.refetch()}
            />
          )}
          <AccessKeyPanel accessKey={authKey} account={account.data?.account} />
        </Section>
        <Section title="Backup">
          <BackupPanel accessKey={authKey} />
        </Section>
        <Section title="Buy an Access Key">
          <BuyKeyPanel />
        </Section>
      </div>
    </ContentLayout>
  );
}
