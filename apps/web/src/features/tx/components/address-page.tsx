import { ADDRESS_PATTERN, type AddressInfo } from "@bundler/shared";
import { Link, useParams } from "react-router";
import { ContentLayout } from "../../../components/layouts/content-layout.tsx";
import { CopyField } from "../../../components/ui/copy-field.tsx";
import { Section } from "../../../components/ui/section.tsx";
import { Spinner } from "../../../components/ui/spinner.tsx";
import { failureText } from "../../../lib/api-error.ts";
import { formatBnb } from "../../../lib/bnb.ts";
import { shortAddress } from "../../../lib/short-address.ts";
import { useAddress } from "../api/get-address.ts";
import { DetailRow } from "./detail-row.tsx";

const STATUS_TONES: Record<string, string> = {
  mined: "text-ok",
  reverted: "text-bad",
  replaced: "text-bad",
  dropped: "text-bad",
};

/**
 * "1000000000.5" → "1,000,000,000.5": whole tokens, without floats, at most 4 decimals (cut,
 * not rounded up: SPEC §9).
 */
const groupDigits = (value: string) => {
  const [whole = "0", fraction = ""] = value.split(".");
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  const shown = fraction.slice(0, 4).replace(/0+$/, "");
  return shown ? `${grouped}.${shown}` : grouped;
};

/**
 * `/address/{address}`: one address as the chain knows it (balance, nonce, account or contract,
 * the launchpad token it is if any) and the transactions the server sent from or to it for you.
 * Addresses link here on a chain without a block explorer (the local chain).
 */
export function AddressPage() {
  const { address = "" } = useParams();
  const valid = ADDRESS_PATTERN.test(address);
  return (
    <ContentLayout title="Address">
      <Section title="Address">
        <CopyField label="Address" value={address} copyLabel="Copy address" />
        {valid ? (
          <AddressDetails address={address} />
        ) : (
          <p role="alert" className="text-bad">
            Not an address: expected 0x followed by 40 hex digits.
          </p>
        )}
      </Section>
    </ContentLayout>
  );
}

function AddressDetails({ address }: { address: string }) {
  const query = useAddress(address);
  const info = query.data?.address;
  if (query.isPending)
    return (
      <p className="flex items-center gap-2 text-dim">
        <Spinner /> reading the address...
      </p>
    );
  if (query.isError || !info)
    return (
      <p role="alert" className="text-bad">
        {failureText(query.error, "Failed to load the address")}
      </p>
    );
  return (
    <>
      <dl className="flex flex-col gap-2 text-sm" data-testid="address-details">
        <DetailRow label="Balance">
          <span title={`${info.balance} BNB`} data-testid="address-balance">
            {formatBnb(info.balance)} BNB
          </span>
        </DetailRow>
        <DetailRow label="Nonce">{info.nonce}</DetailRow>
        <DetailRow label="Type">{info.isContract ? "contract" : "account"}</DetailRow>
      </dl>
      {info.token && <TokenDetails address={info.address} token={info.token} />}
      <AddressTransactions info={info} />
    </>
  );
}

function TokenDetails({
  address,
  token,
}: {
  address: string;
  token: NonNullable<AddressInfo["token"]>;
}) {
  return (
    <div className="flex flex-col gap-2 border-t border-line pt-4">
      <h3 className="text-sm font-semibold text-fg">Launchpad token</h3>
      <dl className="flex flex-col gap-2 text-sm" data-testid="address-token">
        <DetailRow label="Name">{token.name || "unnamed"}</DetailRow>
        <DetailRow label="Symbol">{token.symbol ? `$${token.symbol}` : "none"}</DetailRow>
        <DetailRow label="Total supply">{groupDigits(token.totalSupply)}</DetailRow>
        <DetailRow label="Trades on">
          {token.graduated ? "the DEX (graduated)" : "the bonding curve"}
        </DetailRow>
      </dl>
      <Link to={`/wallets/${address}`} className="self-start text-dim hover:text-accent">
        [open in wallet manager]
      </Link>
    </div>
  );
}

function AddressTransactions({ info }: { info: AddressInfo }) {
  const own = info.address.toLowerCase();
  return (
    <div className="flex flex-col gap-2 border-t border-line pt-4">
      <h3 className="text-sm font-semibold text-fg">Transactions the bundler sent for you</h3>
      {info.transactions.length === 0 ? (
        <p className="text-sm text-faint">None from or to this address.</p>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full text-left text-xs" data-testid="address-transactions">
            <thead className="text-faint">
              <tr>
                <th className="py-1 pr-3 font-normal">Hash</th>
                <th className="py-1 pr-3 font-normal">Purpose</th>
                <th className="py-1 pr-3 font-normal">Direction</th>
                <th className="py-1 pr-3 font-normal">Status</th>
                <th className="py-1 font-normal text-right">Block</th>
              </tr>
            </thead>
            <tbody>
              {info.transactions.map((tx) => (
                <tr key={tx.hash} className="border-t border-line" data-testid="address-tx">
                  <td className="py-1 pr-3">
                    <Link
                      to={`/tx/${tx.hash}`}
                      title={tx.hash}
                      className="text-accent hover:underline"
                    >
                      {shortAddress(tx.hash)}
                    </Link>
                  </td>
                  <td className="py-1 pr-3 text-fg">{tx.purpose}</td>
                  <td className="py-1 pr-3 text-dim">
                    {tx.from.toLowerCase() === own ? "out" : "in"}
                  </td>
                  <td className={`py-1 pr-3 ${STATUS_TONES[tx.status] ?? "text-accent"}`}>
                    {tx.status}
                  </td>
                  <td className="py-1 text-right tabular-nums">{tx.blockNumber ?? "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
