import { Button } from "../../../components/ui/button.tsx";
import { Section } from "../../../components/ui/section.tsx";
import { formatBnb } from "../../../lib/bnb.ts";
import { type FundingRow, faucetAmount } from "../utils/funding.ts";

/** Balance against need for every launch wallet; on the local chain, faucet controls. */
export function FundingPanel({
  rows,
  balances,
  faucet,
  funding,
  refreshing,
  onFund,
  onRefresh,
}: {
  rows: readonly FundingRow[];
  balances: ReadonlyMap<string, string> | undefined;
  faucet: boolean;
  funding: boolean;
  refreshing: boolean;
  onFund: (rows: readonly FundingRow[]) => void;
  onRefresh: () => void;
}) {
  const balanceOf = (row: FundingRow) => balances?.get(row.address.toLowerCase());
  const unfunded = rows.filter((row) => faucetAmount(row.required, balanceOf(row)) !== null);
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
          const balance = balanceOf(row);
          const short = faucetAmount(row.required, balance) !== null;
          return (
            <li
              key={`${row.role}-${row.address}`}
              className="flex flex-wrap items-center gap-x-3 border-t border-line py-1.5 first:border-0"
            >
              <span className="w-20 text-faint">{row.role}</span>
              <span className="min-w-0 flex-1 truncate text-dim">{row.address}</span>
              <span className={short ? "text-bad" : "text-ok"}>
                {formatBnb(balance)} / {formatBnb(row.required)} BNB
              </span>
              {faucet && short && (
                <Button
                  variant="bracket"
                  disabled={funding}
                  aria-label={`Fund ${row.address} from faucet`}
                  onClick={() => onFund([row])}
                >
                  [fund from faucet]
                </Button>
              )}
            </li>
          );
        })}
      </ul>
      {faucet && (
        <p className="text-xs text-faint">
          Local chain: the faucet sends what is missing plus 0.01 BNB for gas.
        </p>
      )}
    </Section>
  );
}
