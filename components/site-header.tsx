import Link from "next/link";
import { currentSession } from "@/lib/portal/sign-in/session.ts";
import { NavLink } from "./nav-link";

/** The portal's header on every page: sections, and who is signed in. */
export async function SiteHeader() {
  const session = await currentSession();
  return (
    <header className="border-b border-slate-200 dark:border-slate-800">
      <nav
        aria-label="Main"
        className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-2 gap-y-1 px-4 py-3 text-sm sm:px-6"
      >
        <NavLink href="/">Home</NavLink>
        <NavLink href="/docs">Docs</NavLink>
        <NavLink href="/keys">Keys</NavLink>
        <NavLink href="/usage">Usage</NavLink>
        <NavLink href="/console">Consoles</NavLink>
        {session?.user.operator && <NavLink href="/admin">Admin</NavLink>}
        <span className="ml-auto flex items-center gap-2">
          {session ? (
            <>
              <span className="text-slate-700 dark:text-slate-300">{session.user.email ?? session.user.name}</span>
              <Link href="/sign-out" className="rounded-md px-2 py-1 hover:bg-slate-100 dark:hover:bg-slate-800">
                Sign out
              </Link>
            </>
          ) : (
            <Link
              href="/sign-in"
              className="rounded-md bg-indigo-700 px-3 py-1 font-medium text-white hover:bg-indigo-600"
            >
              Sign in
            </Link>
          )}
        </span>
      </nav>
    </header>
  );
}
