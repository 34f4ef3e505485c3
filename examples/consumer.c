/*
 * consumer.c -- the C core from plain C (or C++), without Swift: three fences around Brisbane and one fix.
 *
 *   make install PREFIX=$HOME/.local
 *   PKG_CONFIG_PATH=$HOME/.local/lib/pkgconfig cc examples/consumer.c $(pkg-config --cflags --libs geofence)
 */
#include <geofence.h>

#include <stdio.h>

int main(void) {
    static const struct {
        const char *name;
        double lat, lon;     /* degrees */
        uint32_t radius_mm;
    } places[] = {
        {"Brisbane GPO", -27.4679357, 153.0281038, 200000},   /* 200 m */
        {"South Bank", -27.4748, 153.0204, 500000},           /* 500 m */
        {"Brisbane Airport", -27.3842, 153.1175, 3000000},    /* 3 km */
    };
    const char *names[3];
    gf_handle handles[3];
    gf_table *table = NULL;
    gf_status status = gf_table_create(100, &table);
    if (status != GF_OK) {
        fprintf(stderr, "gf_table_create: %s\n", gf_status_message(status));
        return 1;
    }
    for (int i = 0; i < 3; i++) {
        gf_point centre;
        status = gf_point_from_degrees(places[i].lat, places[i].lon, &centre);
        if (status == GF_OK) status = gf_fence_add(table, centre, places[i].radius_mm, &handles[i]);
        if (status != GF_OK) {
            fprintf(stderr, "%s: %s\n", places[i].name, gf_status_name(status));
            gf_table_destroy(table);
            return 1;
        }
        names[i] = places[i].name;
    }

    /* A fix on the Victoria Bridge, between the GPO and South Bank: which fences is it in, or within 500 m of? */
    gf_point fix;
    gf_hit hits[8];
    size_t count = 0;
    gf_point_from_degrees(-27.4722, 153.0236, &fix);
    status = gf_query(table, fix, 500000, hits, 8, &count);
    if (status != GF_OK) {
        fprintf(stderr, "gf_query: %s\n", gf_status_name(status));
        gf_table_destroy(table);
        return 1;
    }
    printf("%zu fences within 500 m of the fix:\n", count);
    for (size_t i = 0; i < count; i++) {
        const char *name = "?";
        for (int k = 0; k < 3; k++)
            if (handles[k] == hits[i].handle) name = names[k];
        long mm = hits[i].distance_mm;  /* negative inside */
        printf("  %-16s %-7s %4ld m from the edge\n", name, mm <= 0 ? "inside" : "outside",
               ((mm < 0 ? -mm : mm) + 500) / 1000);
    }
    gf_table_destroy(table);
    return 0;
}
