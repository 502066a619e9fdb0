import type { Bumper } from "@bundler/shared";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { getBumperWalletsQueryOptions } from "../api/get-bumper-wallets.ts";
import { bumpersListKey } from "../api/get-bumpers.ts";

/**
 * When the selected bumper moves on (a bump lands, it completes or is stopped), the list and
 * its wallets table are read again. Both poll only while it is active, so without this the
 * read that sees it complete stops their polling first, and they keep the state from before
 * its last bump (the list under Active, "running"; one wallet short).
 */
export function useRefreshOnProgress(bumper: Bumper | null) {
  const queryClient = useQueryClient();
  const id = bumper?.id ?? null;
  const progress = bumper ? `${bumper.status}:${bumper.bumpsCompleted}` : null;
  const seen = useRef<{ id: string | null; progress: string | null }>({ id, progress });
  useEffect(() => {
    const before = seen.current;
    seen.current = { id, progress };
    if (id === null || before.id !== id || before.progress === null) return;
    if (before.progress === progress) return;
    void queryClient.invalidateQueries({ queryKey: bumpersListKey });
    void queryClient.invalidateQueries({ queryKey: getBumperWalletsQueryOptions(id).queryKey });
  }, [queryClient, id, progress]);
}
