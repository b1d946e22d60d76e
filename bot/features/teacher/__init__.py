"""For teachers: /analysis, students' reports, /regrade."""
