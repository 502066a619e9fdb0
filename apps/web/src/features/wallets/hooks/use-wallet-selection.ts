import { useCallback, useMemo, useState } from "react";

export interface WalletSelection {
  /** Selected addresses, lowercase. */
  selected: ReadonlySet<string>;
  isSelected: (address: string) => boolean;
  toggle: (address: string) => void;
  /** Replaces the selection (the shortcuts). */
  replace: (addresses: readonly string[]) => void;
  clear: () => void;
  /** The selected wallets among `addresses`, in their order and spelling. */
  pick: (addresses: readonly string[]) => string[];
}

/** Which of a bundle's wallets the next sell or empty acts on. */
export function useWalletSelection(): WalletSelection {
  const [selected, setSelected] = useState<ReadonlySet<string>>(() => new Set());
  const toggle = useCallback((address: string) => {
    const key = address.toLowerCase();
    setSelected((current) => {
      const next = new Set(current);
      if (!next.delete(key)) next.add(key);
      return next;
    });
  }, []);
  const replace = useCallback(
    (addresses: readonly string[]) => setSelected(new Set(addresses.map((a) => a.toLowerCase()))),
    [],
  );
  const clear = useCallback(() => setSelected(new Set()), []);
  return useMemo(
    () => ({
      selected,
      isSelected: (address: string) => selected.has(address.toLowerCase()),
      toggle,
      replace,
      clear,
      pick: (addresses: readonly string[]) =>
        addresses.filter((address) => selected.has(address.toLowerCase())),
    }),
    [selected, toggle, replace, clear],
  );
}
