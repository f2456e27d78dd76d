-- Organisations have teams; a team has members with roles and keys. A key without a team is in its
-- owner's personal space, as every key was before: existing keys need no change.
CREATE TABLE "organisations" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "organisations_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "organisations_name_key" ON "organisations" (lower("name"));

CREATE TABLE "teams" (
    "id" TEXT NOT NULL,
    "organisation_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "teams_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "teams_organisation_id_fkey" FOREIGN KEY ("organisation_id") REFERENCES "organisations"("id") ON DELETE RESTRICT ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "teams_organisation_name_key" ON "teams" ("organisation_id", lower("name"));
CREATE INDEX "teams_updated_at_idx" ON "teams"("updated_at");

-- role: owner, admin, member or viewer.
CREATE TABLE "team_members" (
    "team_id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "team_members_pkey" PRIMARY KEY ("team_id", "user_id"),
    CONSTRAINT "team_members_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "teams"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "team_members_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "team_members_user_id_idx" ON "team_members"("user_id");

-- Limits above the key: an organisation's, a team's or a user's (across all of the user's keys). A null
-- window is not limited at that level. Every instance holds these rows in memory and polls by updated_at.
CREATE TABLE "level_limits" (
    "level" TEXT NOT NULL,
    "subject_id" TEXT NOT NULL,
    "minute_limit" INTEGER,
    "day_limit" INTEGER,
    "token_minute_limit" INTEGER,
    "token_day_limit" INTEGER,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "level_limits_pkey" PRIMARY KEY ("level", "subject_id")
);
CREATE INDEX "level_limits_updated_at_idx" ON "level_limits"("updated_at");

-- A team's key: with user_id, a member's personal key for that team (revoked when they leave it);
-- without, the team's own (it stays when members go).
ALTER TABLE "api_keys" ADD COLUMN "team_id" TEXT;
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "teams"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
CREATE INDEX "api_keys_team_id_idx" ON "api_keys"("team_id");
