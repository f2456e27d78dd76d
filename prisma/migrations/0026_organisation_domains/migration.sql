-- A mail domain an operator has verified as an organisation's: with require_sso its addresses sign in only
-- through the OpenID Connect provider; with join_team_id its users may ask to join that team, and its
-- owner or an admin decides.
CREATE TABLE "organisation_domains" (
    "domain" TEXT NOT NULL,
    "organisation_id" TEXT NOT NULL,
    "require_sso" BOOLEAN NOT NULL DEFAULT false,
    "join_team_id" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "organisation_domains_pkey" PRIMARY KEY ("domain"),
    CONSTRAINT "organisation_domains_organisation_id_fkey" FOREIGN KEY ("organisation_id") REFERENCES "organisations"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "organisation_domains_join_team_id_fkey" FOREIGN KEY ("join_team_id") REFERENCES "teams"("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- A user's request to join a team through their verified domain: pending until the team's owner or an
-- admin approves (they become a member) or declines it.
CREATE TABLE "team_join_requests" (
    "team_id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "decided_by" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "decided_at" TIMESTAMP(3),
    CONSTRAINT "team_join_requests_pkey" PRIMARY KEY ("team_id", "user_id"),
    CONSTRAINT "team_join_requests_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "teams"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "team_join_requests_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
