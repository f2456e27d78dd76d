-- Research tasks (issue #13): what a task spent, and its progress events, so the stream of a task
-- started on one instance can be read on another.

-- AlterTable
ALTER TABLE "tasks" ADD COLUMN "usage" JSONB;

-- CreateIndex: the per-key count of pending and running tasks taken on each submission
CREATE INDEX "tasks_owner_key_id_status_idx" ON "tasks"("owner_key_id", "status");

-- CreateTable
CREATE TABLE "task_events" (
    "id" BIGSERIAL NOT NULL,
    "task_id" TEXT NOT NULL,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "data" JSONB NOT NULL,

    CONSTRAINT "task_events_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "task_events_task_id_id_idx" ON "task_events"("task_id", "id");

-- AddForeignKey
ALTER TABLE "task_events" ADD CONSTRAINT "task_events_task_id_fkey" FOREIGN KEY ("task_id") REFERENCES "tasks"("id") ON DELETE CASCADE ON UPDATE CASCADE;
