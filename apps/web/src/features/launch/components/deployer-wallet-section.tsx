import { useState } from "react";
import { Field } from "../../../components/ui/field.tsx";
import { Input } from "../../../components/ui/input.tsx";
import { Section } from "../../../components/ui/section.tsx";
import type { LaunchForm, SetField } from "../utils/launch-form.ts";
import { generateWallet, type KeyedWallet, walletFromPrivateKey } from "../utils/private-key.ts";
import type { FieldErrors } from "../utils/validate-launch-form.ts";
import { DeveloperWalletDialog } from "./developer-wallet-dialog.tsx";

export function DeployerWalletSection({
  form,
  set,
  errors,
}: {
  form: LaunchForm;
  set: SetField;
  errors: FieldErrors;
}) {
  const [generated, setGenerated] = useState<KeyedWallet | null>(null);
  const address = walletFromPrivateKey(form.deployerPvtk)?.address;
  const generate = () => {
    const wallet = generateWallet();
    set("deployerPvtk", wallet.privateKey);
    setGenerated(wallet);
  };
  return (
    <Section
      title="Deployer Wallet"
      aside={
        <button type="button" className="text-dim hover:text-accent" onClick={generate}>
          [generate new wallet]
        </button>
      }
    >
      <Field
        label="Private key"
        error={errors.deployerPvtk}
        hint={address ? `address ${address}` : "creates the token and makes the deployer buy"}
      >
        <Input
          aria-label="Deployer private key"
          type="password"
          autoComplete="off"
          placeholder="0x..."
          value={form.deployerPvtk}
          onChange={(e) => set("deployerPvtk", e.target.value)}
        />
      </Field>
      {generated && <DeveloperWalletDialog wallet={generated} onClose={() => setGenerated(null)} />}
    </Section>
  );
}
