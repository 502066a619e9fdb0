import type { AutosellRule } from "@bundler/shared";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { QueryState } from "../../../components/ui/query-state.tsx";
import { Section } from "../../../components/ui/section.tsx";
import { useSocketEvent } from "../../../lib/socket.ts";
import { bundleBalancesKey } from "../api/get-bundle-balances.ts";
import { bundlePnlKey } from "../api/get-bundle-pnl.ts";
import { useBundleRules } from "../api/get-bundle-rules.ts";
import { useFiredToasts } from "../hooks/use-fired-toasts.ts";
import { RulesForm } from "./rules-form.tsx";
import { RulesList } from "./rules-list.tsx";

/**
 * "Rules": auto-sell rules for the bundle. Presets and a form to arm one (with a dry run of
 * what it would do now), and the bundle's rules with a live reading of each trigger's input,
 * read again at every new block; a firing that appears toasts, and the balances and P&L are
 * read again to show its sales.
 */
export function RulesPanel({
  address,
  explorerUrl,
}: {
  address: string;
  explorerUrl: string | null;
}) {
  const queryClient = useQueryClient();
  const rules = useBundleRules(address);
  const [editing, setEditing] = useState<AutosellRule | null>(null);
  useSocketEvent("block", () => void rules.refetch());
  useFiredToasts(rules.data?.rules, () => {
    void queryClient.invalidateQueries({ queryKey: bundleBalancesKey });
    void queryClient.invalidateQueries({ queryKey: bundlePnlKey(address) });
  });

  return (
    <Section title="Rules">
      <RulesForm
        // A new key starts the form afresh: the rule being edited, or a blank one.
        key={editing?.id ?? "new"}
        address={address}
        explorerUrl={explorerUrl}
        editing={editing}
        onDoneEditing={() => setEditing(null)}
      />
      <QueryState
        query={rules}
        loading="reading the bundle's rules..."
        failure="Failed to load the bundle's rules."
      >
        {(data) => (
          <RulesList
            address={address}
            rules={data.rules}
            explorerUrl={explorerUrl}
            onEdit={setEditing}
          />
        )}
      </QueryState>
    </Section>
  );
}
