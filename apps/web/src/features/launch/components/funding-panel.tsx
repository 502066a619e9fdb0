import { Button } from "../../../components/ui/button.tsx";
import { Section } from "../../../components/ui/section.tsx";
import { formatBnb } from "../../../lib/bnb.ts";
import { FAUCET_MARGIN_BNB, type FundingRow, isShort } from "../utils/funding.ts";

/**
 * Balance against what the launch plan says each address must hold; on the local chain, faucet
 * controls, which wait while the plan is being recalculated (its amounts may be the last
 * form's). Empty until the plan is known.
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
          const short = isShort(row, balances);
          return (
            <li
              key={row.address}
              className="flex flex-wrap items-center gap-x-3 border-t border-line py-1.5 first:border-0"
            >
              <span className="w-36 text-faint">{row.role}</span>
              <span className="min-w-0 flex-1 truncate text-dim">{row.address}</span>
              <span className={short ? "text-bad" : "text-ok"}>
                {formatBnb(balances?.get(row.address.toLowerCase()))} / {formatBnb(row.required)}{" "}
                BNB
              </span>
              {faucet && short && (
                <Button
                  variant="bracket"
                  disabled={funding || planning}
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
