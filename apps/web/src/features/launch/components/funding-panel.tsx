import { FaucetStepText } from "../../../components/launch/faucet-step.tsx";
import type { FaucetStep } from "../../../components/launch/fund-from-faucet.ts";
import {
  FAUCET_MARGIN_BNB,
  type FundingRow,
  isShort,
  lacksShown,
  needOf,
  requiredShown,
} from "../../../components/launch/funding.ts";
import { Button } from "../../../components/ui/button.tsx";
import { Section } from "../../../components/ui/section.tsx";
import { formatBnb } from "../../../lib/bnb.ts";

/**
 * Balance against what the launch plan says each address must hold, and what a short one
 * lacks (the figures the drafts page's execute confirmation shows too); on the local chain,
 * faucet controls, which wait while the plan is being recalculated (its amounts may be the last
 * form's), and each payment's progress in its row. Empty until the plan is known.
 */
export function FundingPanel({
  rows,
  balances,
  faucet,
  funding,
  planning,
  refreshing,
  onFund,
  onRefresh,
  stepOf = () => undefined,
  explorerUrl = null,
}: {
  rows: readonly FundingRow[];
  balances: ReadonlyMap<string, string> | undefined;
  faucet: boolean;
  funding: boolean;
  /** A new plan is on its way. */
  planning: boolean;
  refreshing: boolean;
  onFund: (rows: readonly FundingRow[]) => void;
  onRefresh: () => void;
  /** Where each address's faucet payment stands, once [fund all] or its own button ran. */
  stepOf?: (address: string) => FaucetStep | undefined;
  explorerUrl?: string | null;
}) {
  const unfunded = rows.filter((row) => isShort(row, balances));
  return (
    <Section
      title="Funding"
      aside={
        <div className="flex gap-3">
          <Button variant="bracket" busy={refreshing} busyLabel="refreshing..." onClick={onRefresh}>
            [refresh]
          </Button>
          {faucet && unfunded.length > 0 && (
            <Button
              variant="bracket"
              busy={funding}
              busyLabel="funding..."
              disabled={planning}
              onClick={() => onFund(unfunded)}
            >
              [fund all]
            </Button>
          )}
        </div>
      }
    >
      <ul className="flex max-h-72 flex-col overflow-y-auto text-xs">
        {rows.map((row) => {
          const need = needOf(row, balances);
          const short = need.missing > 0n;
          const step = stepOf(row.address);
          return (
            <li
              key={row.address}
              data-address={row.address}
              className="flex flex-wrap items-center gap-x-3 border-t border-line py-1.5 first:border-0"
            >
              <span className="w-36 text-faint">{row.role}</span>
              <span className="min-w-0 flex-1 truncate text-dim">{row.address}</span>
              <span className={short ? "text-bad" : "text-ok"}>
                {formatBnb(balances?.get(row.address.toLowerCase()))} / {requiredShown(need)} BNB
              </span>
              {short && <span className="text-bad">lacks {lacksShown(need)} BNB</span>}
              {step ? (
                <FaucetStepText step={step} explorerUrl={explorerUrl} />
              ) : (
                faucet &&
                short && (
                  <Button
                    variant="bracket"
                    disabled={funding || planning}
                    aria-label={`Fund ${row.address} from faucet`}
                    onClick={() => onFund([row])}
                  >
                    [fund from faucet]
                  </Button>
                )
              )}
            </li>
          );
        })}
      </ul>
      {rows.length === 0 && (
        <p className="text-xs text-faint">
          What each address must hold shows once the launch is planned.
        </p>
      )}
      <p className="text-xs text-faint">
        Each amount covers the address's buys, fees and tips plus their gas at the launch's gas
        price.
        {faucet &&
          ` Local chain: the faucet sends what is missing plus ${FAUCET_MARGIN_BNB} BNB to spare.`}
      </p>
    </Section>
  );
}
