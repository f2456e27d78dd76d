import type { DefaultSession } from "next-auth";

// What lib/portal/sign-in/auth.ts's session callback adds to next-auth's session.
declare module "next-auth" {
  interface Session {
    user: DefaultSession["user"] & { id: string; operator: boolean };
  }
}
