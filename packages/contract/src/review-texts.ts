/** Reviews' numbers and texts (issue 26), zod-free: the pages that show reviews read them from `/plain`. */

/** How long after writing it a learner may still change a review. */
export const REVIEW_EDIT_DAYS = 14;
/** How long after a lesson's end a no-show can be marked (teacher) or reported (learner). */
export const NO_SHOW_HOURS = 48;
export const REVIEW_COMMENT_MAX = 1000;
export const REVIEW_REPLY_MAX = 1000;
export const REVIEW_HIDE_REASON_MAX = 300;
/** Reviews per page on the teacher's page. */
export const REVIEWS_PAGE_SIZE = 10;
/** How many of a teacher's newest lesson reviews the card keeps (under Read more). */
export const CARD_LESSON_REVIEWS = 3;

export const reviewMessages = {
  ratingRequired: 'Choose a rating from 1 to 5',
  commentTooLong: `The comment can be at most ${REVIEW_COMMENT_MAX} characters`,
  replyRequired: 'Write an answer',
  replyTooLong: `The answer can be at most ${REVIEW_REPLY_MAX} characters`,
  reasonRequired: 'Give a reason',
  reasonTooLong: `The reason can be at most ${REVIEW_HIDE_REASON_MAX} characters`,
  notYet: 'You can rate this lesson once it has ended.',
  notReviewable: 'This lesson cannot be rated.',
  editClosed: `A review can be changed for ${REVIEW_EDIT_DAYS} days after it was written.`,
  noShowClosed: `A missed lesson can be reported up to ${NO_SHOW_HOURS} hours after its end.`,
  alreadyAnswered: 'This review has an answer already.',
  saved: 'Thank you! Your review is saved.',
  teacherAbsentReported: 'Thank you for telling us. The school will look into it.',
  replySaved: 'Your answer is published under the review.',
  lessonMark: 'Lesson taken on LearnLingo',
  importedMark: 'Imported review',
  hiddenBySchool: 'Hidden by the school',
} as const;

export const REVIEW_SORTS = ['newest', 'lowest'] as const;
export type ReviewSort = (typeof REVIEW_SORTS)[number];
