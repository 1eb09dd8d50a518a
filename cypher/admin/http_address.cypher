// Where the server's HTTP connector (and Neo4j Browser at /browser/) answers: its
// advertised and listen addresses, and whether it is enabled (`graphmem demo` prints the
// Browser URL from it).
// Parameters: none.
SHOW SETTINGS YIELD name, value
WHERE name IN ['server.http.enabled', 'server.http.advertised_address',
               'server.http.listen_address']
RETURN name, value
