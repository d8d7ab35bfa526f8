DROP INDEX "teacher_languages_gin";--> statement-breakpoint
DROP INDEX "teacher_levels_gin";--> statement-breakpoint
DROP INDEX "teacher_price_idx";