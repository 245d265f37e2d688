# Embeds core/sql/schema.sql and core/sql/migrations/v*.sql into
# phaseprobe_core as a generated header (nppdb_sql.inc), so the library is the
# only place that knows the schema and no SQL file has to be installed.
set(_pp_sql_dir ${CMAKE_CURRENT_LIST_DIR})
set(_pp_sql_out ${CMAKE_CURRENT_BINARY_DIR}/generated/phaseprobe)
file(GLOB _pp_migrations ${_pp_sql_dir}/migrations/v*.sql)
set(_pp_sql_files ${_pp_sql_dir}/schema.sql ${_pp_migrations})
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${_pp_sql_files}
             ${_pp_sql_dir}/migrations)

# Raw string literals with a delimiter that SQL never contains.
file(READ ${_pp_sql_dir}/schema.sql _pp_schema)
set(_pp_inc "// Generated from core/sql by embed.cmake; do not edit.\n")
string(APPEND _pp_inc "static const char NppdbSchemaSql[] = R\"ppsql(${_pp_schema})ppsql\";\n")
string(APPEND _pp_inc "struct NppdbMigration { int To; const char *Sql; };\n")
string(APPEND _pp_inc "static const NppdbMigration NppdbMigrations[] = {\n")
foreach(m ${_pp_migrations})
  get_filename_component(_pp_name ${m} NAME_WE)
  string(SUBSTRING ${_pp_name} 1 -1 _pp_to)
  file(READ ${m} _pp_body)
  string(APPEND _pp_inc "  {${_pp_to}, R\"ppsql(${_pp_body})ppsql\"},\n")
endforeach()
string(APPEND _pp_inc "  {0, nullptr}};\n")
file(CONFIGURE OUTPUT ${_pp_sql_out}/nppdb_sql.inc CONTENT "${_pp_inc}" @ONLY)
target_include_directories(phaseprobe_core PRIVATE ${CMAKE_CURRENT_BINARY_DIR}/generated)
