import type { AdminSortField } from "@bundler/shared";
import { useEffect, useState } from "react";
import toast from "react-hot-toast";
import { Button } from "../../../components/ui/button.tsx";
import { Input } from "../../../components/ui/input.tsx";
import { Pagination } from "../../../components/ui/pagination.tsx";
import { Section } from "../../../components/ui/section.tsx";
import { usePageParam } from "../../../hooks/use-page-param.ts";
import { useAdminUsers } from "../api/get-admin-users.ts";
import { ADMIN_MESSAGES } from "../utils/admin-messages.ts";
import { DEFAULT_USER_SORT, nextUserSort, type UserSort } from "../utils/user-sort.ts";
import { UsersTable } from "./users-table.tsx";

/**
 * The user list: 20 a page (page in the URL), sorted by the server; a search (on [search] or
 * Enter) asks the server, which looks through every user, not only the page shown.
 */
export function UsersSection() {
  const [page, setPage] = usePageParam();
  const [sort, setSort] = useState<UserSort>(DEFAULT_USER_SORT);
  const [typed, setTyped] = useState("");
  const [search, setSearch] = useState("");
  const users = useAdminUsers({ page, ...sort, ...(search ? { search } : {}) });

  useEffect(() => {
    if (users.isError) toast.error(ADMIN_MESSAGES.loadFailed, { id: "admin-load" });
  }, [users.isError]);

  const sortBy = (field: AdminSortField) => {
    setSort((current) => nextUserSort(current, field));
    setPage(1);
  };
  const pagination = users.data?.pagination;
  const from =
    pagination && pagination.total > 0 ? (pagination.page - 1) * pagination.limit + 1 : 0;
  const to = pagination ? from + (users.data?.users.length ?? 0) - (from > 0 ? 1 : 0) : 0;

  return (
    <Section
      title="Users"
      aside={
        pagination && (
          <span className="text-xs text-dim" data-testid="users-range">
            Showing {from}-{to} of {pagination.total}
          </span>
        )
      }
    >
      <form
        aria-label="User search"
        className="flex max-w-2xl items-center gap-3"
        onSubmit={(event) => {
          event.preventDefault();
          setSearch(typed.trim());
          setPage(1);
        }}
      >
        <Input
          aria-label="Search users"
          placeholder="key, user id, device id, role, wallet, payment or token address, referral code"
          value={typed}
          onChange={(event) => setTyped(event.target.value)}
        />
        <Button type="submit" variant="bracket">
          [search]
        </Button>
        {search && (
          <Button
            variant="bracket"
            onClick={() => {
              setTyped("");
              setSearch("");
              setPage(1);
            }}
          >
            [clear]
          </Button>
        )}
      </form>
      {users.isPending && <p className="text-dim">loading users...</p>}
      {users.isError && !users.data && <p className="text-bad">{ADMIN_MESSAGES.loadFailed}</p>}
      {users.data && (
        <div className={users.isPlaceholderData ? "opacity-60" : ""}>
          <UsersTable
            users={users.data.users}
            sort={sort}
            onSort={sortBy}
            searched={search !== ""}
          />
        </div>
      )}
      {pagination && (
        <Pagination
          page={pagination.page}
          pageCount={pagination.pages}
          onPageChange={setPage}
          label="User pages"
        />
      )}
    </Section>
  );
}
