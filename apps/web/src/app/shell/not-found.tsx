import { Link } from "react-router";
import { Logo } from "../../components/ui/logo.tsx";

export function NotFound() {
  return (
    <section className="flex flex-col items-center gap-8 px-4 py-24 text-center">
      <Logo size="lg" />
      <p className="text-lg text-dim">Nothing to see here...</p>
      <Link to="/" className="text-accent hover:underline">
        [go to home]
      </Link>
    </section>
  );
}
